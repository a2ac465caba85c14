import { EntitySchema } from "typeorm";
import { idText, text, timestamptz } from "./columns.js";

/** A secret of the service itself (not of an account), made once at first start and shared by every replica. */
export interface ServerSecretRow {
  name: string;
  secret: string;
  created_at: Date;
}

export const ServerSecretEntity = new EntitySchema<ServerSecretRow>({
  name: "ServerSecret",
  tableName: "server_secrets",
  columns: {
    name: idText({ primary: true }),
    secret: text(),
    created_at: timestamptz(),
  },
});
