import { createWorker } from "../worker/app";

export default createWorker(null);
