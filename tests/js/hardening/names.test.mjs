// Exact names and trimming against the ESM build (dist/node.mjs).
import * as tp from "../../../dist/node.mjs";
import { names } from "./names.mjs";

names(tp, "ESM");
