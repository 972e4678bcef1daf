/**
 * Type tests (checked by `tsc` in `pnpm check`, never run): what `createSshOperations` accepts,
 * and the adapter shape every remote adapter shares (synchronous factory, `connect`, `dispose`).
 */
import type { Operations } from "@tackle/operations";
import { expectTypeOf } from "vitest";
import { createSshOperations, type SshOperations, type SshOperationsOptions } from "../src/index.js";

const base = { host: "devbox", username: "me" } as const;
expectTypeOf(createSshOperations({ ...base, agent: true })).toEqualTypeOf<SshOperations>();
expectTypeOf<SshOperations>().toExtend<Operations>();
expectTypeOf<SshOperations["connect"]>().returns.toEqualTypeOf<Promise<void>>();
expectTypeOf<SshOperations["dispose"]>().returns.toEqualTypeOf<Promise<void>>();

createSshOperations({ ...base, privateKey: new Uint8Array(), passphrase: "p", port: 2222 });
createSshOperations({ ...base, agent: "/run/agent.sock", hostKey: { knownHostsPath: "/k" } });
createSshOperations({ ...base, agent: true, hostKey: { fingerprint: ["SHA256:abc"] } });
createSshOperations({ ...base, agent: true, hostKey: { insecureAcceptAny: true }, ripgrep: false });

// @ts-expect-error host is required
createSshOperations({ username: "me", agent: true });
// @ts-expect-error username is required
createSshOperations({ host: "devbox", agent: true });
// @ts-expect-error port is a number
createSshOperations({ ...base, agent: true, port: "22" });
// @ts-expect-error agent is a socket path or true
createSshOperations({ ...base, agent: false });
// @ts-expect-error insecureAcceptAny must be true (one source of trust)
createSshOperations({ ...base, agent: true, hostKey: { insecureAcceptAny: false } });
// @ts-expect-error ripgrep is "auto", a path or false
createSshOperations({ ...base, agent: true, ripgrep: true });

const options: SshOperationsOptions = { ...base, agent: true };
void options;
