import { randomBytes } from "node:crypto";
import type { DataSource } from "typeorm";

/** Named secrets of the service, created on first use (256 random bits, base64url). */
export class TypeOrmServerSecrets {
  constructor(private readonly ds: DataSource) {}

  /** The secret called `name`; the first caller on any replica creates it, every other one reads that. */
  async get(name: string, now: Date): Promise<string> {
    // Insert-if-absent then read: replicas starting together all end up with the one stored row.
    await this.ds.query(`INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3::timestamptz) ON CONFLICT (name) DO NOTHING`, [name, randomBytes(32).toString("base64url"), now]);
    const rows = (await this.ds.query(`SELECT secret FROM server_secrets WHERE name = $1`, [name])) as { secret: string }[];
    const secret = rows[0]?.secret;
    if (!secret) throw new Error(`server secret ${name} was not stored`);
    return secret;
  }
}
