// Node.js, CommonJS: scripts/build.mjs bundles node.mjs (with the glue, api.js and the
// inline copy of the wasm) into node.cjs. node.mjs neither reads files nor awaits, so the
// CommonJS build is the same code.
export * from "./node.mjs";
