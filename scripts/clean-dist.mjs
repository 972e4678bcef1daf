// Removes build output so no file of an earlier build lingers in a build (or in a tarball).
// - From a package directory (its `build` script, before tsc): that package's dist/.
// - `--workspace` from the repository root (`pnpm build`, before turbo): every package's dist/
//   and wasm/. turbo restores a cached build's outputs over what is on disk without removing the
//   rest, so files an earlier, different build wrote (a bundle chunk under another name, the
//   output of a renamed source) would otherwise survive a cache hit and be packed by a release.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

if (process.argv.includes("--workspace")) {
  const packages = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "packages");
  for (const name of fs.readdirSync(packages)) {
    for (const output of ["dist", "wasm"]) {
      fs.rmSync(path.join(packages, name, output), { recursive: true, force: true });
    }
  }
} else {
  fs.rmSync("dist", { recursive: true, force: true });
}
