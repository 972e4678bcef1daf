// Builds the greeting shown on the welcome page.
export function greet(name) {
  const who = name.trim();
  return `Hello, ${who}`;
}
