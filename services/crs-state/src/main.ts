import { runService } from "@crs/runtime";
import { crsState } from "./service.js";

await runService(crsState);
