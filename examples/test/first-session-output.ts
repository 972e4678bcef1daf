import { expect } from "vitest";

/** The `--- title` sections the first session prints, by title. */
function sections(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .split(/^--- /m)
      .slice(1)
      .map((section) => [section.split("\n")[0] ?? "", section]),
  );
}

/** What every environment must print for the same first session. */
export function expectFirstSession(stdout: string): void {
  const found = sections(stdout);
  expect(Object.keys(found)).toEqual(["write", "grep", "read", "edit", "bash"]);
  expect(found.write).toContain("Created greet.sh");
  expect(found.grep).toContain("greet.sh:1:");
  expect(found.read).toContain('1\techo "Hello $1"');
  expect(found.edit).toContain("Edited greet.sh: 1 edit applied");
  expect(found.bash).toContain("Hi Ada");
  expect(found.bash).toContain("Exit code 0");
}
