import { z } from "zod";

/**
 * What a webhook delivery means to the bot, read from the Cloud API's JSON after its signature
 * was checked. One delivery can batch several entries, changes, messages and statuses: every
 * one is read (not only the first), and one malformed item is skipped without losing the rest.
 */
export type InboundEvent =
  | {
      readonly kind: "message";
      readonly phoneNumberId: string;
      /** The message id (wamid…): redeliveries carry the same one. */
      readonly id: string;
      /** The sender's WhatsApp id (phone number), or their business-scoped user id. */
      readonly from: string;
      readonly name: string | null;
      readonly groupId: string | null;
      readonly type: string;
      /** Text or caption; null for message types that carry none (stickers, reactions, …). */
      readonly text: string | null;
      readonly forwarded: boolean;
    }
  | {
      readonly kind: "status";
      readonly phoneNumberId: string;
      /** The id of the message we sent. */
      readonly id: string;
      readonly status: string;
      readonly recipientId: string | null;
      readonly errors: readonly { readonly code: number; readonly title: string }[];
    }
  /** A field or item the bot does not handle (account updates, template reviews, calls…). */
  | { readonly kind: "ignored"; readonly what: string };

const id = z.string().min(1).max(512);
const caption = z.object({ caption: z.string().max(65_536).optional() }).optional();

const messageSchema = z.object({
  id,
  from: z.string().min(1).max(128).optional(),
  from_user_id: z.string().min(1).max(256).optional(),
  group_id: z.string().min(1).max(256).optional(),
  type: z.string().min(1).max(64),
  text: z.object({ body: z.string().max(65_536) }).optional(),
  image: caption,
  video: caption,
  document: caption,
  context: z.object({ forwarded: z.boolean().optional(), frequently_forwarded: z.boolean().optional() }).optional(),
});

const statusSchema = z.object({
  id,
  status: z.string().min(1).max(64),
  recipient_id: z.string().max(256).optional(),
  errors: z.array(z.object({ code: z.number(), title: z.string().max(1024).optional() })).max(20).optional(),
});

const contactSchema = z.object({
  wa_id: z.string().max(128).optional(),
  user_id: z.string().max(256).optional(),
  profile: z.object({ name: z.string().max(256).optional() }).optional(),
});

const valueSchema = z.object({
  metadata: z.object({ phone_number_id: id }),
  contacts: z.array(z.unknown()).max(1000).optional(),
  messages: z.array(z.unknown()).max(1000).optional(),
  statuses: z.array(z.unknown()).max(1000).optional(),
});

const envelopeSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string().max(128), value: z.unknown() })).max(1000) })).max(1000),
});

export type ParsedDelivery = { readonly ok: true; readonly events: readonly InboundEvent[] } | { readonly ok: false; readonly reason: string };

/** The events of one delivery, or why the delivery as a whole is not a Cloud API webhook. */
export function readDelivery(json: unknown): ParsedDelivery {
  const env = envelopeSchema.safeParse(json);
  if (!env.success) return { ok: false, reason: "not a webhook delivery (object and entry[].changes[] expected)" };
  if (env.data.object !== "whatsapp_business_account") return { ok: true, events: [{ kind: "ignored", what: `object ${env.data.object.slice(0, 64)}` }] };
  const events: InboundEvent[] = [];
  for (const entry of env.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") {
        events.push({ kind: "ignored", what: `field ${change.field}` });
        continue;
      }
      const value = valueSchema.safeParse(change.value);
      if (!value.success) {
        events.push({ kind: "ignored", what: "malformed messages change" });
        continue;
      }
      const phoneNumberId = value.data.metadata.phone_number_id;
      const names = new Map<string, string>();
      for (const raw of value.data.contacts ?? []) {
        const c = contactSchema.safeParse(raw);
        const name = c.success ? c.data.profile?.name : undefined;
        if (!c.success || !name) continue;
        if (c.data.wa_id) names.set(c.data.wa_id, name);
        if (c.data.user_id) names.set(c.data.user_id, name);
      }
      for (const raw of value.data.messages ?? []) {
        const m = messageSchema.safeParse(raw);
        const from = m.success ? (m.data.from ?? m.data.from_user_id) : undefined;
        if (!m.success || !from) {
          events.push({ kind: "ignored", what: "malformed message" });
          continue;
        }
        const d = m.data;
        const text = d.type === "text" ? (d.text?.body ?? null) : d.type === "image" || d.type === "video" || d.type === "document" ? (d[d.type]?.caption ?? null) : null;
        events.push({
          kind: "message",
          phoneNumberId,
          id: d.id,
          from,
          name: names.get(from) ?? null,
          groupId: d.group_id ?? null,
          type: d.type,
          text,
          forwarded: d.context?.forwarded === true || d.context?.frequently_forwarded === true,
        });
      }
      for (const raw of value.data.statuses ?? []) {
        const s = statusSchema.safeParse(raw);
        if (!s.success) {
          events.push({ kind: "ignored", what: "malformed status" });
          continue;
        }
        events.push({
          kind: "status",
          phoneNumberId,
          id: s.data.id,
          status: s.data.status,
          recipientId: s.data.recipient_id ?? null,
          errors: (s.data.errors ?? []).map((e) => ({ code: e.code, title: e.title ?? "" })),
        });
      }
    }
  }
  return { ok: true, events };
}
