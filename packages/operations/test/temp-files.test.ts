import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  FOREIGN_TEMP_MAX_AGE_MS,
  isAbandonedTempFile,
  isTempFileName,
  parseTempFileName,
  runningProcessStart,
  TEMP_TARGET_MAX_BYTES,
  tempFileDomain,
  tempFileName,
} from "../src/index.js";

const owner = { domain: tempFileDomain("boot-a", "pid:[4026531836]"), pid: 4242, start: "123456" };

describe("temp file names", () => {
  it("round-trip: the name says whose it is and which target it was for", () => {
    const name = tempFileName("notes.txt", owner);
    expect(name.startsWith(".notes.txt.tackle-")).toBe(true);
    expect(name.endsWith(".tmp")).toBe(true);
    expect(isTempFileName(name)).toBe(true);
    expect(parseTempFileName(name)).toEqual({ target: "notes.txt", owner });
  });

  it("are unpredictable: two names for the same target and owner differ", () => {
    expect(tempFileName("a", owner)).not.toBe(tempFileName("a", owner));
  });

  it("cut a long target at a character boundary and stay under NAME_MAX", () => {
    const long = "é".repeat(200);
    const name = tempFileName(long, { ...owner, pid: 4_294_967_295, start: "18446744073709551615" });
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    const parsed = parseTempFileName(name);
    expect(Buffer.byteLength(parsed?.target ?? "")).toBeLessThanOrEqual(TEMP_TARGET_MAX_BYTES);
    expect(long.startsWith(parsed?.target ?? "x")).toBe(true);
  });

  it("keep names with dots, newlines and an empty target recognisable", () => {
    for (const target of ["a.b.c", "line\nbreak", ".hidden", ""]) {
      const name = tempFileName(target, owner);
      expect(isTempFileName(name)).toBe(true);
      expect(parseTempFileName(name)?.target).toBe(target);
    }
  });

  it("leave ordinary names alone, including near misses", () => {
    for (const name of [
      "notes.txt",
      ".notes.txt.swp",
      ".notes.txt.tackle-tmp",
      "notes.tackle-0123456789ab-1-2-0123456789abcdef.tmp",
      ".n.tackle-0123456789ab-1-2-0123456789abcdef.tmp.bak",
      ".n.tackle-XYZ-1-2-0123456789abcdef.tmp",
    ]) {
      expect(isTempFileName(name), name).toBe(false);
      expect(parseTempFileName(name)).toBeUndefined();
    }
  });
});

describe("tempFileDomain", () => {
  it("is 12 hex digits, stable, and differs per boot and per pid namespace", () => {
    const a = tempFileDomain("boot-a", "pid:[1]");
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(tempFileDomain("boot-a\n", " pid:[1]")).toBe(a);
    expect(tempFileDomain("boot-b", "pid:[1]")).not.toBe(a);
    expect(tempFileDomain("boot-a", "pid:[2]")).not.toBe(a);
  });
});

describe("isAbandonedTempFile", () => {
  it("same process table: abandoned exactly when the writer is gone or its pid was reused", () => {
    const here = { domain: owner.domain, ageMs: 0 };
    expect(isAbandonedTempFile(owner, { ...here, startOfPid: owner.start })).toBe(false);
    expect(isAbandonedTempFile(owner, { ...here, startOfPid: undefined })).toBe(true);
    expect(isAbandonedTempFile(owner, { ...here, startOfPid: "999" })).toBe(true);
  });

  it("another process table: only an old file counts as abandoned", () => {
    const elsewhere = { domain: tempFileDomain("other", "pid:[1]"), startOfPid: undefined };
    expect(isAbandonedTempFile(owner, { ...elsewhere, ageMs: 1000 })).toBe(false);
    expect(isAbandonedTempFile(owner, { ...elsewhere, ageMs: FOREIGN_TEMP_MAX_AGE_MS + 1 })).toBe(true);
  });
});

describe("runningProcessStart", () => {
  it("reads field 22, also when the command name holds spaces and parentheses", () => {
    const tail = "S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 19 20";
    expect(runningProcessStart(`12 (a b) c)) ${tail}`)).toBe("777");
    expect(runningProcessStart("garbage")).toBeUndefined();
  });

  it("has no start time for a zombie: it has exited, whatever its entry says", () => {
    const tail = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 777 19 20";
    expect(runningProcessStart(`12 (sftp-server) Z ${tail}`)).toBeUndefined();
    expect(runningProcessStart(`12 (sftp-server) X ${tail}`)).toBeUndefined();
  });

  it("agrees with this process's own /proc entry", () => {
    const own = readFileSync("/proc/self/stat", "utf8");
    expect(runningProcessStart(own)).toMatch(/^[0-9]+$/);
  });
});
