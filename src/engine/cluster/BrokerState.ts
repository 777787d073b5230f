/** A broker process: serving, in a controlled shutdown, or gone (killed, stopped, powered off). */
export type BrokerState = 'running' | 'shuttingDown' | 'down';
