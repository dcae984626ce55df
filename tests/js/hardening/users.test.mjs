// Issue 30 faults against the ESM build.
import * as tp from "../../../dist/node.mjs";
import { users } from "./users.mjs";

users(tp, "ESM");
