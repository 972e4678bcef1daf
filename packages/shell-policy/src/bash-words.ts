import type { SyntaxNode } from "./parser.js";

/** A shell word as the rules see it: its literal value when static, its source text always. */
export interface Word {
  /** The value after quote removal, or undefined when it depends on runtime values. */
  value: string | undefined;
  text: string;
  node: SyntaxNode;
}

/** Sentinel inserted for `$HOME` / `${HOME}` so path rules can expand it to the real home. */
export const HOME_TOKEN = "~";

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

/** Literal value of a bash word node, or undefined when it contains expansions other than $HOME. */
export function bashWordValue(node: SyntaxNode): string | undefined {
  switch (node.type) {
    case "word":
    case "number":
      return unescapeWord(node.text);
    case "raw_string":
      return node.text.slice(1, -1);
    case "string": {
      let out = "";
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "string_content") out += child.text.replace(/\\([$`"\\\n])/g, "$1");
        else {
          const inner = bashWordValue(child);
          if (inner === undefined) return undefined;
          out += inner;
        }
      }
      return out;
    }
    case "simple_expansion":
    case "expansion":
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal bash text ${HOME}.
      return node.text === "$HOME" || node.text === "${HOME}" ? HOME_TOKEN : undefined;
    case "concatenation": {
      let out = "";
      for (const child of node.namedChildren) {
        if (!child) continue;
        const inner = bashWordValue(child);
        if (inner === undefined) return undefined;
        out += inner;
      }
      // The bash grammar does not always expose unquoted punctuation as named children.
      return node.namedChildren.length === 0 ? unescapeWord(node.text) : out;
    }
    default:
      return undefined;
  }
}

/** A {@link Word} for a node. */
export function bashWord(node: SyntaxNode): Word {
  return { value: bashWordValue(node), text: node.text, node };
}

/** `/usr/bin/sudo` -> `sudo`; case kept (bash is case-sensitive). */
export function commandBaseName(value: string): string {
  const slash = value.lastIndexOf("/");
  return slash === -1 ? value : value.slice(slash + 1);
}
