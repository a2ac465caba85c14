import type { SupportDesk, SupportTicket } from "./ports.js";

export class InMemorySupportDesk implements SupportDesk {
  readonly tickets: (SupportTicket & { readonly id: string })[] = [];

  async open(ticket: SupportTicket): Promise<{ readonly id: string }> {
    const id = `T-${String(this.tickets.length + 1).padStart(5, "0")}`;
    this.tickets.push({ ...ticket, id });
    return { id };
  }
}
