import { beforeAll, describe, expect, it } from "vitest";
import { compileGuides, runGuide } from "./run-guide.js";

beforeAll(compileGuides);

describe("the guides' code, as the site shows it", () => {
  it("getting started: write, grep, read, edit and bash on a temporary folder", async () => {
    const { stdout } = await runGuide("getting-started");
    const sections = Object.fromEntries(
      stdout.split(/^--- /m).slice(1).map((section) => [section.split("\n")[0], section]),
    );
    expect(Object.keys(sections)).toEqual(["write", "grep", "read", "edit", "bash"]);
    expect(sections.grep).toContain("greet.sh:1:");
    expect(sections.read).toContain('1\techo "Hello $1"');
    expect(sections.edit).toContain("Edited greet.sh: 1 edit applied");
    expect(sections.bash).toContain("Hi Ada");
    expect(sections.bash).toContain("Exit code 0");
  });
});
