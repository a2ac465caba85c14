import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Seals Slack bot tokens for the database: AES-256-GCM under a key derived (HKDF-SHA-256) from
 * SLACK_TOKEN_KEY, a fresh 96-bit nonce per seal, and the workspace id as associated data, so
 * a sealed token copied onto another workspace's row does not open. Format:
 * `v1.<nonce>.<ciphertext>.<tag>` (base64url parts).
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new RangeError("the token key must be at least 32 characters");
    this.key = Buffer.from(hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), "svc.slack.bot-token.v1", 32));
  }

  seal(token: string, teamId: string): string {
    const nonce = randomBytes(12);
    const c = createCipheriv("aes-256-gcm", this.key, nonce);
    c.setAAD(Buffer.from(teamId, "utf8"));
    const body = Buffer.concat([c.update(token, "utf8"), c.final()]);
    return ["v1", nonce.toString("base64url"), body.toString("base64url"), c.getAuthTag().toString("base64url")].join(".");
  }

  /** The token, or null when the value was sealed under another key, for another workspace, or altered. */
  open(sealed: string, teamId: string): string | null {
    const [v, nonce, body, tag] = sealed.split(".");
    if (v !== "v1" || nonce === undefined || body === undefined || tag === undefined) return null;
    try {
      const d = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "base64url"));
      d.setAAD(Buffer.from(teamId, "utf8"));
      d.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([d.update(Buffer.from(body, "base64url")), d.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}
