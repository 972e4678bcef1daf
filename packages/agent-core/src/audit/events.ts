/**
 * The audit trail's vocabulary: what one tool call leaves behind as evidence, as events keyed by
 * its `toolCallId`. Seven kinds, one per question a person asks afterwards: what was asked
 * (`intent`), what allowed or stopped it (`decision`), what was started (`spawn`), what came out
 * and when (`output`), how it ended (`end`), what it changed (`side-effect`), what the
 * environment said about a changed file (`diagnostics`).
 *
 * Events are plain JSON (one line each in a JSONL file), so every field is a string, number,
 * boolean, array or object; times are ISO 8601 strings, durations milliseconds. Each type here is
 * derived from its schema in `event-schemas.ts`, where every field is described; a reader checks
 * the lines it reads back against the same schemas.
 */
import type { Static } from "@sinclair/typebox";
import type {
  AUDIT_EVENT_KINDS,
  AuditDecisionSchema,
  AuditDiagnosticsSchema,
  AuditEndSchema,
  AuditEnvironmentSchema,
  AuditEventBaseSchema,
  AuditFileChangeSchema,
  AuditGateSchema,
  AuditIntentSchema,
  AuditOutputSchema,
  AuditResultSizeSchema,
  AuditSideEffectSchema,
  AuditSpawnSchema,
  RequestedBySchema,
} from "./event-schemas.js";

export { AUDIT_EVENT_VERSION } from "./event-schemas.js";

/** The seven pieces of evidence. */
export type AuditEventKind = (typeof AUDIT_EVENT_KINDS)[number];

/** Who asked for a call: the model (an agent turn, an MCP client) or a person (`tackle tool`). */
export type RequestedBy = Static<typeof RequestedBySchema>;

/** Fields every event has. */
export interface AuditEventBase extends Static<typeof AuditEventBaseSchema> {}

/** What was asked: the tool, a short redacted summary of its arguments, and who asked. */
export interface AuditIntent extends Static<typeof AuditIntentSchema> {}

/** The gates a call passes. */
export type AuditGate = Static<typeof AuditGateSchema>;

/** The environment a call ran in (the `environment` gate's note). */
export interface AuditEnvironment extends Static<typeof AuditEnvironmentSchema> {}

/** A gate the call passed or that stopped it. */
export interface AuditDecision extends Static<typeof AuditDecisionSchema> {}

/** A process the call started (shell tools). */
export interface AuditSpawn extends Static<typeof AuditSpawnSchema> {}

/** What came out, when, and what the model was shown of it. */
export interface AuditOutput extends Static<typeof AuditOutputSchema> {}

/** Content blocks, text bytes and images of the result the model got. */
export interface AuditResultSize extends Static<typeof AuditResultSizeSchema> {}

/** How a call (`scope: "call"`) or its process (`scope: "process"`) ended. */
export interface AuditEnd extends Static<typeof AuditEndSchema> {}

/** One file a call created, changed or removed. */
export interface AuditFileChange extends Static<typeof AuditFileChangeSchema> {}

/** What the call changed: exactly (file tools) or by a bounded before/after snapshot (shell tools). */
export interface AuditSideEffect extends Static<typeof AuditSideEffectSchema> {}

/** What the environment said about a file the call changed: syntax check, language server. */
export interface AuditDiagnostics extends Static<typeof AuditDiagnosticsSchema> {}

/** Any audit event. */
export type AuditEvent =
  | AuditIntent
  | AuditDecision
  | AuditSpawn
  | AuditOutput
  | AuditEnd
  | AuditSideEffect
  | AuditDiagnostics;

/** An event as an emitter writes it: the recorder fills in `v`, `callId`, `sessionId` and `at`. */
export type AuditEventInput =
  | (Omit<AuditIntent, keyof AuditEventBase | "kind"> & { kind: "intent"; source: string })
  | (Omit<AuditDecision, keyof AuditEventBase | "kind"> & { kind: "decision"; source: string })
  | (Omit<AuditSpawn, keyof AuditEventBase | "kind"> & { kind: "spawn"; source: string })
  | (Omit<AuditOutput, keyof AuditEventBase | "kind"> & { kind: "output"; source: string })
  | (Omit<AuditEnd, keyof AuditEventBase | "kind"> & { kind: "end"; source: string })
  | (Omit<AuditSideEffect, keyof AuditEventBase | "kind"> & { kind: "side-effect"; source: string })
  | (Omit<AuditDiagnostics, keyof AuditEventBase | "kind"> & { kind: "diagnostics"; source: string });
