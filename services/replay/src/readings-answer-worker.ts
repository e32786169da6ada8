/**
 * A what-if answered from the readings kept ready, in a worker thread (readings-ready.ts, answerFromKeptInWorker):
 * reading which tables are current and the kept parts takes about a tenth of a second for a month, which the API's
 * thread is not to spend. Reads the store and the readings file only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { answerFromKept, type KeptAnswerRequest } from './readings-ready.ts';

parentPort!.postMessage(await answerFromKept(workerData as KeptAnswerRequest));
