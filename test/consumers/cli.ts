// cli: the package's programmatic entry (the binary itself is run by the test).
import { EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE, parseEnvUrl } from "@tackle/cli";

const spec = parseEnvUrl("ssh://me@devbox:2222/srv/app");
console.log(JSON.stringify({ kind: spec.kind, codes: [EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE] }));
