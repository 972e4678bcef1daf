import { type DecodedText, encodeText } from "../text/encoding.js";
import type { EditPlan } from "./plan-types.js";

/**
 * The edited file's bytes. For UTF-8, the stretches no edit touches are copied from the bytes as
 * read and only the replacement texts are encoded: splicing a 10 MB string and encoding it all
 * again would cost more than finding the edits. UTF-16 files, and a span that starts or ends
 * inside a surrogate pair (an oldText holding half of one), are encoded from the new text.
 */
export function encodeEditedFile(
  bytes: Uint8Array,
  decoded: DecodedText,
  plan: Pick<EditPlan, "document" | "spans" | "text">,
): Uint8Array {
  const original = plan.document.original;
  const splitsPair = (offset: number) =>
    isHighSurrogate(original.charCodeAt(offset - 1)) && isLowSurrogate(original.charCodeAt(offset));
  if (
    decoded.encoding !== "utf8" ||
    plan.spans.some((span) => splitsPair(span.start) || splitsPair(span.end))
  ) {
    return encodeText(plan.text, decoded.encoding, decoded.hasBom);
  }
  const bodyStart = decoded.hasBom ? 3 : 0;
  // Only ASCII characters take one byte each: then text offsets are byte offsets.
  const ascii = original.length === bytes.length - bodyStart;
  let char = 0;
  let byte = bodyStart;
  const byteOffset = (offset: number) => {
    if (ascii) return bodyStart + offset;
    byte += Buffer.byteLength(original.slice(char, offset), "utf8");
    char = offset;
    return byte;
  };
  const pieces: Uint8Array[] = [bytes.subarray(0, bodyStart)];
  let copied = bodyStart;
  for (const span of plan.spans) {
    pieces.push(bytes.subarray(copied, byteOffset(span.start)), Buffer.from(span.text, "utf8"));
    copied = byteOffset(span.end);
  }
  pieces.push(bytes.subarray(copied));
  return Buffer.concat(pieces);
}

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
