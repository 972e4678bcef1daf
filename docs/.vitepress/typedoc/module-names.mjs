// TypeDoc plugin: names each module after the specifier users import it by (`@tackle/tools/local`)
// instead of its path in the repository (`tools/src/local`).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Converter, ReflectionKind } from "typedoc";
import { publicEntryPoints } from "./entry-points.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** @param {import("typedoc").Application} app */
export function load(app) {
  const names = new Map(publicEntryPoints(root).map(({ name, file }) => [file, name]));
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const file = module.sources?.[0]?.fullFileName;
      const name = file && names.get(path.resolve(file));
      if (name) module.name = name;
      else app.logger.warn(`module ${module.name} is not a public entry point (${file ?? "no source"})`);
    }
  });
}
