// Run with: node test.mjs
import assert from "node:assert/strict";
import { greet } from "./src/greet.mjs";

assert.equal(greet("  Ada "), "Hello, Ada!");
console.log("greet: 1 test passed");
