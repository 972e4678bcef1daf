import { displayPath, pathSyntax } from "@tackle/session";
import { describe, expect, it } from "vitest";
import { resultPathDisplay } from "../src/search/result-paths.js";

const paths = [
  "a.ts",
  "src/a.ts",
  "deep/er/x.md",
  "..cache/x",
  "a/.hidden",
  ".x/y",
  "a/../b",
  "./a",
  "a/./b",
  "a//b",
  "/a",
  "a/",
  "..",
  "名前/ü.txt",
  "a b/c d",
];

describe("resultPathDisplay", () => {
  it("shows every path exactly as displayPath of the joined path, inside, at and outside cwd", () => {
    const cases = [
      {
        platform: "posix" as const,
        cwd: "/w/repo",
        dirs: ["/w/repo", "/w/repo/src", "/w", "/elsewhere", "/w/repo-b"],
      },
      { platform: "win32" as const, cwd: "C:\\w\\repo", dirs: ["C:\\w\\repo", "C:\\w\\repo\\src", "D:\\x"] },
    ];
    let checked = 0;
    for (const { platform, cwd, dirs } of cases) {
      const syntax = pathSyntax(platform);
      for (const dir of dirs) {
        const show = resultPathDisplay(syntax, cwd, dir);
        for (const path of paths) {
          const exact = displayPath(syntax, cwd, syntax.join(dir, ...path.split("/")));
          expect([platform, dir, path, show(path)]).toEqual([platform, dir, path, exact]);
          checked++;
        }
      }
    }
    expect(checked).toBe(paths.length * 8);
  });
});
