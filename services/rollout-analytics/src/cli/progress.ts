import { SingleBar } from "cli-progress";
import type { ScanProgress } from "../scan/index.js";
import type { CliIo } from "./io.js";

/** A progress display for a scan: a bar on a terminal, nothing otherwise. */
export interface ScanProgressView {
  update(p: ScanProgress): void;
  stop(): void;
}

const MB = 1_000_000;

/** A bar on stderr showing files and bytes of the total, rate and ETA; silent when stderr is not a terminal. */
export function scanProgressView(io: CliIo, stream: NodeJS.WriteStream = process.stderr): ScanProgressView {
  if (!io.errIsTty) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream,
    format: "scanning |{bar}| {percentage}% | {files} files | {doneMb}/{totalMb} MB | {rate} MB/s | ETA {eta_formatted}",
    barCompleteChar: "█",
    barIncompleteChar: "░",
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 50,
  });
  const started = Date.now();
  let begun = false;
  return {
    update(p) {
      const payload = {
        files: `${p.filesDone}/${p.filesTotal}`,
        doneMb: (p.bytesDone / MB).toFixed(1),
        totalMb: (p.bytesTotal / MB).toFixed(1),
        rate: (p.bytesDone / MB / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1),
      };
      // Progress counts bytes, so the ETA follows the data rather than the file count.
      if (!begun) {
        bar.start(Math.max(1, p.bytesTotal), p.bytesDone, payload);
        begun = true;
      } else bar.update(p.bytesDone, payload);
    },
    stop() {
      if (begun) bar.stop();
    },
  };
}
