// The JS suites against the built package's ESM entry (dist/node.mjs).
import * as tp from "../../dist/node.mjs";
import { routing } from "./suites/routing.mjs";
import { router } from "./suites/router.mjs";
import { policies } from "./suites/policies.mjs";
import { decisions } from "./suites/decisions.mjs";
import { toolIndex } from "./suites/index.mjs";

const entry = new URL("../../dist/node.mjs", import.meta.url).pathname;
routing(tp);
router(tp, { entry, format: "esm" });
policies(tp);
decisions(tp);
toolIndex(tp);
