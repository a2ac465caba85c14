import type { JobQueue } from "@svc/server-ports";
import { createAccountPurgeQueue, createCheckQueues, openPgBossJobQueue, SqlJobQueue } from "@svc/jobs";
import type { Logger } from "pino";
import type { DataSource, EntityManager } from "typeorm";
import type { StorageSettings } from "./storage.js";

export interface QueueOptions {
  readonly logger: Logger;
  /** pg-boss's own connections (PostgreSQL). */
  readonly maxConnections?: number;
  /** Run pg-boss's maintenance here (workers do; API replicas that only send do not). */
  readonly supervise?: boolean;
  readonly maintenanceIntervalSeconds?: number;
  /** Create svc's queues (default). A worker creates them itself, with its lease. */
  readonly createQueues?: boolean;
}

/**
 * The job queue on the process's storage: pg-boss on PostgreSQL (its own schema, installed on
 * first start), a leased table on embedded PGlite (one process: the API with its embedded worker).
 * The queues svc uses exist when this returns.
 */
export async function openJobQueue(s: StorageSettings, ds: DataSource, o: QueueOptions): Promise<JobQueue<EntityManager>> {
  const queue: JobQueue<EntityManager> = s.DATABASE_URL
    ? await openPgBossJobQueue({
      connectionString: s.DATABASE_URL,
      logger: o.logger,
      maxConnections: o.maxConnections ?? 4,
      ...(o.supervise !== undefined ? { supervise: o.supervise } : {}),
      ...(o.maintenanceIntervalSeconds !== undefined ? { maintenanceIntervalSeconds: o.maintenanceIntervalSeconds } : {}),
    })
    : new SqlJobQueue(ds, { logger: o.logger, singleProcess: true });
  if (o.createQueues !== false) {
    await createCheckQueues(queue);
    await createAccountPurgeQueue(queue);
  }
  return queue;
}
