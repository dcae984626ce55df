// Issue 30 faults against the CommonJS build.
const tp = require("../../../dist/node.cjs");

module.exports = import("./users.mjs").then(({ users }) => users(tp, "CommonJS"));
