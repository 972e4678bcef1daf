// Removes the package's dist/ before tsc writes it, so a file whose source was renamed or
// deleted never lingers in a build (or in a tarball). Run from the package directory.
import fs from "node:fs";

fs.rmSync("dist", { recursive: true, force: true });
