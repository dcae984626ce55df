// Issue 13 faults against the ESM build.
import * as tp from "../../../dist/node.mjs";
import { faults } from "./faults.mjs";

faults(tp, "ESM");
