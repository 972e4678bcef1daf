import type { PlaceholderRefusal } from "./placeholders.js";

/**
 * What edit says when `[REDACTED:<kind>]` placeholders in an edit cannot stand for hidden values
 * (see `expandRedactedPlaceholders`): which edit and field, the placeholders, why, and the next step
 * (`shell`, the shell tool the model has, as the fallback).
 */
export function placeholderRefusalMessage(
  index: number,
  path: string,
  refusal: PlaceholderRefusal,
  field: "oldText" | "newText",
  placeholders: readonly string[],
  shell?: string,
): string {
  const label = `edits[${index}].${field}`;
  const list = placeholders.join(", ");
  switch (refusal) {
    case "not_found":
      return (
        `${label} contains ${list}: a secret that read or grep hid. With the hidden value put back, oldText is not in ${path}: ` +
        "around a placeholder oldText must match the file character for character, whole words. Nothing was written. " +
        `Copy the lines again from a fresh read of the file, placeholders included, then retry${shell ? `, or change that line with ${shell}` : ""}.`
      );
    case "ambiguous":
      return (
        `${label} contains ${list}: with the hidden values put back, oldText matches more than one place in ${path}. ` +
        `Nothing was written. Add surrounding lines to oldText so it matches once, then retry${shell ? `, or change that line with ${shell}` : ""}.`
      );
    case "unmatched_in_new":
      return (
        `${label} contains ${list}, which stands for no placeholder of the same kind in oldText: a placeholder in newText ` +
        `only writes back the secret its twin in oldText matched. Nothing was written to ${path}. ` +
        "Put the line that holds the secret, with its placeholder, in oldText too, or leave the placeholder out of newText" +
        `${shell ? `, or change them with ${shell}` : ""}.`
      );
  }
}
