import { runService } from "@crs/runtime";
import { rolloutAnalytics } from "./service.js";

await runService(rolloutAnalytics);
