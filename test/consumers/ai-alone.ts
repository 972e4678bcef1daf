// The baseline for the ai-sdk consumer: `ai` 7 alone, under the same compiler options. Whatever
// errors ai's own declarations give here are all the ai-sdk consumer may give.
import * as ai from "ai";

console.log(Object.keys(ai).length > 0);
