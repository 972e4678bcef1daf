/**
 * Patches as models send them, good and broken, with the files before and what must hold after.
 * `{dir}` in a patch stands for the case's directory (relative to the workspace root). The same
 * corpus runs through the apply_patch tool, the shell tool's heredoc form and the provider
 * handlers, on every adapter.
 */
import type { TackleToolErrorCode } from "../tool-error-codes.js";

/** One corpus case. */
export interface PatchCase {
  name: string;
  /** Files before, relative to the case's directory. */
  files: Record<string, string>;
  /** Files the model read first (the stale-read check then applies to them). */
  read?: string[];
  /** Changed behind the model's back after it read them (relative path -> new content). */
  changedAfterRead?: Record<string, string>;
  patch: string;
  /** Files after: content, or null for a file that must not exist. Unlisted files must be unchanged. */
  after?: Record<string, string | null>;
  /** The call must fail with this code and change nothing. */
  error?: TackleToolErrorCode;
  /** Text the result must contain. */
  says?: string[];
}

const UTILS = [
  "def add(a, b):",
  "    return a + b",
  "",
  "",
  "def sub(a, b):",
  "    return a - b",
  "",
  "",
  "class Calc:",
  "    def total(self, items):",
  "        result = 0",
  "        for item in items:",
  "            result += item",
  "        return result",
  "",
  "    def mean(self, items):",
  "        result = 0",
  "        for item in items:",
  "            result += item",
  "        return result / len(items)",
  "",
].join("\n");

/** The corpus. */
export const PATCH_CORPUS: readonly PatchCase[] = [
  {
    name: "adds a file (Codex form)",
    files: {},
    patch: "*** Begin Patch\n*** Add File: {dir}/hello.txt\n+Hello, world!\n+\n+bye\n*** End Patch",
    after: { "hello.txt": "Hello, world!\n\nbye\n" },
    says: ["A {dir}/hello.txt (3 lines)"],
  },
  {
    name: "updates with an @@ anchor and two hunks in file order",
    files: { "utils.py": UTILS },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/utils.py",
      "@@ def add(a, b):",
      "-    return a + b",
      "+    return b + a",
      "@@ def sub(a, b):",
      "-    return a - b",
      "+    return -(b - a)",
      "*** End Patch",
    ].join("\n"),
    after: { "utils.py": UTILS.replace("a + b", "b + a").replace("return a - b", "return -(b - a)") },
    says: ["M {dir}/utils.py (+2 -2, 2 hunks at lines 2, 6)"],
  },
  {
    name: "deletes a file",
    files: { "old.txt": "gone\n", "keep.txt": "stay\n" },
    patch: "*** Begin Patch\n*** Delete File: {dir}/old.txt\n*** End Patch\n",
    after: { "old.txt": null },
    says: ["D {dir}/old.txt"],
  },
  {
    name: "moves a file and changes it",
    files: { "src/name.txt": "one\ntwo\n" },
    patch:
      "*** Begin Patch\n*** Update File: {dir}/src/name.txt\n*** Move to: {dir}/lib/renamed.txt\n@@\n one\n-two\n+2\n*** End Patch",
    after: { "src/name.txt": null, "lib/renamed.txt": "one\n2\n" },
    says: ["R {dir}/src/name.txt -> {dir}/lib/renamed.txt"],
  },
  {
    name: "applies a hunk marked End of File at the end",
    files: { "tail.txt": "end\nmiddle\nend\n" },
    patch:
      "*** Begin Patch\n*** Update File: {dir}/tail.txt\n@@\n middle\n-end\n+last\n*** End of File\n*** End Patch",
    after: { "tail.txt": "end\nmiddle\nlast\n" },
  },
  {
    name: "refuses context that appears twice without an anchor, naming both lines",
    files: { "utils.py": UTILS },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/utils.py",
      "@@",
      "         for item in items:",
      "-            result += item",
      "+            result += item * 2",
      "*** End Patch",
    ].join("\n"),
    error: "ambiguous_match",
    says: ["hunk 1 (patch line 3) of {dir}/utils.py", "2 places (lines 12, 18)", "@@"],
  },
  {
    name: "applies context that appears twice after the anchor that names the place",
    files: { "utils.py": UTILS },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/utils.py",
      "@@     def mean(self, items):",
      "         for item in items:",
      "-            result += item",
      "+            result += item * 2",
      "*** End Patch",
    ].join("\n"),
    after: {
      "utils.py": UTILS.replace(
        "result += item\n        return result /",
        "result += item * 2\n        return result /",
      ),
    },
    says: ["at line 18"],
  },
  {
    name: "applies stacked anchors (class, then method)",
    files: { "utils.py": UTILS },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/utils.py",
      "@@ class Calc:",
      "@@     def mean(self, items):",
      "-        return result / len(items)",
      "+        return result / max(len(items), 1)",
      "*** End Patch",
    ].join("\n"),
    after: { "utils.py": UTILS.replace("result / len(items)", "result / max(len(items), 1)") },
  },
  {
    name: "refuses a stale hunk, naming the hunk and the first differing line",
    files: { "app.js": "function greet(name) {\n  return 'Hello, ' + name;\n}\n" },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/app.js",
      "@@ function greet(name) {",
      "-  return 'Hi, ' + name;",
      "+  return 'Hi, ' + name + '!';",
      " }",
      "*** End Patch",
    ].join("\n"),
    error: "no_match",
    says: [
      "hunk 1 (patch line 3) of {dir}/app.js",
      "First difference at line 2",
      "Hello, ",
      "Copy the ' ' and '-' lines",
    ],
  },
  {
    name: "refuses a patch without End Patch (cut off) and writes nothing",
    files: {},
    patch: "*** Begin Patch\n*** Add File: {dir}/half.txt\n+first line\n+second",
    error: "invalid_arguments",
    says: ["'*** End Patch'", "cut off"],
    after: { "half.txt": null },
  },
  {
    name: "refuses a path outside the workspace",
    files: {},
    patch: "*** Begin Patch\n*** Add File: ../../outside-tackle-patch.txt\n+nope\n*** End Patch",
    error: "outside_workspace",
  },
  {
    name: "changes no file when a later section fails (all or nothing)",
    files: { "a.txt": "alpha\n", "b.txt": "beta\n" },
    patch: [
      "*** Begin Patch",
      "*** Update File: {dir}/a.txt",
      "-alpha",
      "+ALPHA",
      "*** Add File: {dir}/c.txt",
      "+new",
      "*** Update File: {dir}/b.txt",
      "-gamma",
      "+GAMMA",
      "*** End Patch",
    ].join("\n"),
    error: "no_match",
    says: ["hunk 1 (patch line 8) of {dir}/b.txt"],
    after: { "c.txt": null },
  },
  {
    name: "accepts the patch wrapped in a heredoc",
    files: { "h.txt": "x = 1\n" },
    patch: "<<'EOF'\n*** Begin Patch\n*** Update File: {dir}/h.txt\n-x = 1\n+x = 2\n*** End Patch\nEOF\n",
    after: { "h.txt": "x = 2\n" },
  },
  {
    name: "keeps CRLF line endings and the BOM",
    files: { "w.txt": "\uFEFFa\r\nb\r\nc\r\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/w.txt\n@@\n a\n-b\n+B\n+B2\n c\n*** End Patch",
    after: { "w.txt": "\uFEFFa\r\nB\r\nB2\r\nc\r\n" },
  },
  {
    name: "matches smart quotes fuzzily and leaves the kept lines as the file has them",
    files: { "q.txt": "say(\u201Chi\u201D)\nmsg = \u201Cold\u201D\n" },
    patch:
      '*** Begin Patch\n*** Update File: {dir}/q.txt\n say("hi")\n-msg = "old"\n+msg = "new"\n*** End Patch',
    after: { "q.txt": 'say(\u201Chi\u201D)\nmsg = "new"\n' },
    says: ["fuzzy:quotes"],
  },
  {
    name: "recognises a patch sent again as already applied",
    files: { "r.txt": "keep this line\nnew value\nand this one\n" },
    patch:
      "*** Begin Patch\n*** Update File: {dir}/r.txt\n keep this line\n-old value\n+new value\n and this one\n*** End Patch",
    says: ["already applied"],
  },
  {
    name: "keeps a missing final line break when the last line changes",
    files: { "n.txt": "one\ntwo" },
    patch: "*** Begin Patch\n*** Update File: {dir}/n.txt\n one\n-two\n+three\n*** End Patch",
    after: { "n.txt": "one\nthree" },
  },
  {
    name: "reads a unified-diff hunk header as a bare @@",
    files: { "u.txt": "a\nb\nc\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/u.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+beta\n c\n*** End Patch",
    after: { "u.txt": "a\nbeta\nc\n" },
  },
  {
    name: "refuses to patch a file changed since the model read it",
    files: { "s.txt": "v1\n" },
    read: ["s.txt"],
    changedAfterRead: { "s.txt": "v1\nsomeone else\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/s.txt\n-v1\n+v2\n*** End Patch",
    error: "stale_read",
  },
  {
    name: "refuses Add File over an existing file with other content",
    files: { "e.txt": "mine\n" },
    patch: "*** Begin Patch\n*** Add File: {dir}/e.txt\n+yours\n*** End Patch",
    error: "invalid_arguments",
    says: ["already exists", "*** Update File: {dir}/e.txt"],
  },
  {
    name: "inserts added-only lines right after the anchor line",
    files: { "i.py": "import os\n\ndef main():\n    pass\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/i.py\n@@ import os\n+import sys\n*** End Patch",
    after: { "i.py": "import os\nimport sys\n\ndef main():\n    pass\n" },
  },
  {
    name: "reads a bare blank line in a hunk as an empty kept line",
    files: { "b.py": "x = 1\n\ny = 2\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/b.py\n x = 1\n\n-y = 2\n+y = 3\n*** End Patch",
    after: { "b.py": "x = 1\n\ny = 3\n" },
  },
  {
    name: "refuses to delete a file that does not exist",
    files: {},
    patch: "*** Begin Patch\n*** Delete File: {dir}/missing.txt\n*** End Patch",
    error: "not_found",
  },
  {
    name: "refuses a hunk line without a prefix, naming the patch line",
    files: { "p.txt": "a\nb\n" },
    patch: "*** Begin Patch\n*** Update File: {dir}/p.txt\n@@\n a\nb changed\n*** End Patch",
    error: "invalid_arguments",
    says: ["Patch line 5"],
  },
  {
    name: "deletes then adds one path in a single patch",
    files: { "d.txt": "old\n" },
    patch: "*** Begin Patch\n*** Delete File: {dir}/d.txt\n*** Add File: {dir}/d.txt\n+new\n*** End Patch",
    after: { "d.txt": "new\n" },
  },
];
