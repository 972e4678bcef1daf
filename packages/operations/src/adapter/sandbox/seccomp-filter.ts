/**
 * The seccomp filter of the sandbox, written as classic BPF (what `bwrap --seccomp FD` loads):
 * a short program the kernel runs on every system call of the sandboxed processes.
 *
 * Why these calls: the mount namespace and the dropped capabilities already make most of them
 * fail, but a filter closes the ways back out that a capability-less process still has, and
 * answers with a plain EPERM instead of leaving each to its own kernel check:
 * - other processes: `ptrace`, `process_vm_readv/writev`, `kcmp`, `pidfd_getfd`;
 * - the file system layout: `mount`, `umount2`, `pivot_root`, `chroot`, the new mount API
 *   (`fsopen`, `fsmount`, `move_mount`, `open_tree`, ...), `open_by_handle_at`;
 * - new user namespaces (which would give the process every capability inside them):
 *   `unshare` and `clone` with CLONE_NEWUSER, `setns`; `clone3` answers ENOSYS, since its flags
 *   sit in memory the filter cannot read, and the C library then falls back to `clone`;
 * - the kernel itself: `bpf`, `perf_event_open`, `userfaultfd`, keyrings (`keyctl`, `add_key`,
 *   `request_key`), modules, `kexec`, `reboot`, `swapon`, `syslog`, clocks, `iopl`;
 * - the terminal: `ioctl` TIOCSTI and TIOCLINUX (typing into a terminal outside).
 * Any other architecture than the one the program was written for (32-bit calls on x86-64
 * through `int 0x80`, the x32 ABI) is refused as a whole: its numbers mean other calls.
 */
import { arch } from "node:os";

/** BPF instruction classes and modes used below (linux/bpf_common.h). */
const LD_W_ABS = 0x20;
const JMP_JEQ_K = 0x15;
const JMP_JGE_K = 0x35;
const JMP_JSET_K = 0x45;
const RET_K = 0x06;

/** seccomp return values (linux/seccomp.h). */
const RET_ALLOW = 0x7fff_0000;
const RET_ERRNO = 0x0005_0000;
const EPERM = 1;
const ENOSYS = 38;

/** Offsets in `struct seccomp_data`: nr, arch, then six 64-bit arguments from 16. */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const argLow32 = (index: number) => 16 + 8 * index;

const CLONE_NEWUSER = 0x1000_0000;
const TIOCSTI = 0x5412;
const TIOCLINUX = 0x541c;
const X32_SYSCALL_BIT = 0x4000_0000;

/** The system calls the filter looks at, by number, for one architecture. */
interface SyscallTable {
  /** AUDIT_ARCH_* value the kernel reports for native calls. */
  auditArch: number;
  /** Calls refused outright with EPERM. */
  denied: Record<string, number>;
  clone: number;
  clone3: number;
  unshare: number;
  ioctl: number;
  /** x86-64 only: calls at or above this number belong to the x32 ABI. */
  x32Bit?: number;
}

const X86_64: SyscallTable = {
  auditArch: 0xc000_003e,
  x32Bit: X32_SYSCALL_BIT,
  clone: 56,
  clone3: 435,
  unshare: 272,
  ioctl: 16,
  denied: {
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    kcmp: 312,
    pidfd_getfd: 438,
    setns: 308,
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    chroot: 161,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    move_mount: 429,
    open_tree: 428,
    open_tree_attr: 467,
    mount_setattr: 442,
    name_to_handle_at: 303,
    open_by_handle_at: 304,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    kexec_load: 246,
    kexec_file_load: 320,
    reboot: 169,
    swapon: 167,
    swapoff: 168,
    syslog: 103,
    acct: 163,
    quotactl: 179,
    quotactl_fd: 443,
    lookup_dcookie: 212,
    vhangup: 153,
    settimeofday: 164,
    clock_settime: 227,
    clock_adjtime: 305,
    adjtimex: 159,
    iopl: 172,
    ioperm: 173,
    uselib: 134,
    nfsservctl: 180,
  },
};

const AARCH64: SyscallTable = {
  auditArch: 0xc000_00b7,
  clone: 220,
  clone3: 435,
  unshare: 97,
  ioctl: 29,
  denied: {
    ptrace: 117,
    process_vm_readv: 270,
    process_vm_writev: 271,
    kcmp: 272,
    pidfd_getfd: 438,
    setns: 268,
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    chroot: 51,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    move_mount: 429,
    open_tree: 428,
    open_tree_attr: 467,
    mount_setattr: 442,
    name_to_handle_at: 264,
    open_by_handle_at: 265,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    kexec_load: 104,
    kexec_file_load: 294,
    reboot: 142,
    swapon: 224,
    swapoff: 225,
    syslog: 116,
    acct: 89,
    quotactl: 60,
    quotactl_fd: 443,
    lookup_dcookie: 18,
    vhangup: 58,
    settimeofday: 170,
    clock_settime: 112,
    clock_adjtime: 266,
    adjtimex: 171,
    nfsservctl: 42,
  },
};

const TABLES: Partial<Record<string, SyscallTable>> = { x64: X86_64, arm64: AARCH64 };

/** Names of the calls refused outright on this machine's architecture (for docs and tests). */
export function deniedSyscallNames(cpu: string = arch()): string[] {
  return Object.keys(TABLES[cpu]?.denied ?? {});
}

type Instruction = [code: number, jt: number, jf: number, k: number];

const load = (offset: number): Instruction => [LD_W_ABS, 0, 0, offset];
const ret = (value: number): Instruction => [RET_K, 0, 0, value];
/** If A == k run the next instruction, else skip `skip` instructions. */
const ifEqual = (k: number, skip: number): Instruction => [JMP_JEQ_K, 0, skip, k];

/**
 * The filter program for `cpu` (a `process.arch` value) as the bytes `bwrap --seccomp` reads
 * (`struct sock_filter` array, little-endian), or undefined for an architecture without a table
 * (the sandbox then refuses to start: see `checkSandboxSupport`).
 */
export function seccompProgram(cpu: string = arch()): Uint8Array | undefined {
  const table = TABLES[cpu];
  if (!table) return undefined;
  const deny = ret(RET_ERRNO | EPERM);
  const program: Instruction[] = [
    load(OFFSET_ARCH),
    [JMP_JEQ_K, 1, 0, table.auditArch], // native calls skip the refusal that follows
    deny,
    load(OFFSET_NR),
  ];
  if (table.x32Bit !== undefined) program.push([JMP_JGE_K, 0, 1, table.x32Bit], deny);
  for (const nr of Object.values(table.denied)) program.push(ifEqual(nr, 1), deny);
  program.push(ifEqual(table.clone3, 1), ret(RET_ERRNO | ENOSYS));
  for (const nr of [table.clone, table.unshare]) {
    program.push(ifEqual(nr, 4), load(argLow32(0)), [JMP_JSET_K, 0, 1, CLONE_NEWUSER], deny, ret(RET_ALLOW));
  }
  program.push(
    ifEqual(table.ioctl, 5),
    load(argLow32(1)),
    [JMP_JEQ_K, 1, 0, TIOCSTI],
    [JMP_JEQ_K, 0, 1, TIOCLINUX],
    deny,
    ret(RET_ALLOW),
    ret(RET_ALLOW),
  );
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  program.forEach(([code, jt, jf, k], index) => {
    view.setUint16(index * 8, code, true);
    view.setUint8(index * 8 + 2, jt);
    view.setUint8(index * 8 + 3, jf);
    view.setUint32(index * 8 + 4, k >>> 0, true);
  });
  return bytes;
}
