// Issue 39 (re-entrant readers) against the ESM build.
import * as tp from "../../../dist/node.mjs";
import { reentry } from "./reentry.mjs";

reentry(tp, "ESM");
