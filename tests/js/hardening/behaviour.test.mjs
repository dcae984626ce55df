// Never poisoned, concurrency, re-entrancy and large inputs against the ESM build.
import * as tp from "../../../dist/node.mjs";
import { behaviour } from "./behaviour.mjs";

behaviour(tp, "ESM");
