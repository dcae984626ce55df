// Issue 19 faults against the ESM build.
import * as tp from "../../../dist/node.mjs";
import { door } from "./door.mjs";

door(tp, "ESM");
