/// <reference lib="webworker" />
/**
 * The worker's entry point: one EngineHost serves the page. Everything else lives in serve.ts.
 */
import { serve } from './serve';

serve(self as DedicatedWorkerGlobalScope);
