import { describe, expect, it } from "vitest";
import { parseOfacSdn } from "./ofac-sdn.js";

const src = { source: "ofac-sdn@test" };

export const SDN_XML = `<?xml version="1.0" standalone="yes"?>
<sdnList xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML">
  <publshInformation><Publish_Date>11/20/2026</Publish_Date><Record_Count>2</Record_Count></publshInformation>
  <sdnEntry>
    <uid>1</uid><firstName>Ivan</firstName><lastName>EXAMPLE</lastName><sdnType>Individual</sdnType>
    <programList><program>CYBER2</program><program>RUSSIA-EO14024</program></programList>
    <idList>
      <id><uid>11</uid><idType>Passport</idType><idNumber>AB123</idNumber></id>
      <id><uid>12</uid><idType>Digital Currency Address - XBT</idType><idNumber>1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V</idNumber></id>
      <id><uid>13</uid><idType>Digital Currency Address - ETH</idType><idNumber>0x7F367cC41522cE07553e823bf3be79A889DEbe1B</idNumber></id>
    </idList>
  </sdnEntry>
  <sdnEntry>
    <uid>2</uid><lastName>GARANTEX EUROPE OU</lastName><sdnType>Entity</sdnType>
    <programList><program>CYBER2</program></programList>
    <idList><id><uid>21</uid><idType>Digital Currency Address - USDT</idType><idNumber>TX9hjx1KyLZSm3Q2VRMqzKZi9QH8nAmGwy</idNumber></id></idList>
  </sdnEntry>
  <sdnEntry><uid>3</uid><lastName>A VESSEL</lastName><sdnType>Vessel</sdnType></sdnEntry>
</sdnList>`;

describe("parseOfacSdn", () => {
  it("takes the digital currency addresses with who and which programs, and the publish date", () => {
    const r = parseOfacSdn(SDN_XML, src);
    expect(r.records).toEqual([
      { value: "1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V", type: "wallet", list: "block", label: "sanctioned: Ivan EXAMPLE (CYBER2, RUSSIA-EO14024; XBT)", source: "ofac-sdn@test" },
      { value: "0x7F367cC41522cE07553e823bf3be79A889DEbe1B", type: "wallet", list: "block", label: "sanctioned: Ivan EXAMPLE (CYBER2, RUSSIA-EO14024; ETH)", source: "ofac-sdn@test" },
      { value: "TX9hjx1KyLZSm3Q2VRMqzKZi9QH8nAmGwy", type: "wallet", list: "block", label: "sanctioned: GARANTEX EUROPE OU (CYBER2; USDT)", source: "ofac-sdn@test" },
    ]);
    expect(r.skipped).toEqual([]);
    expect(r.publishDate).toBe("11/20/2026");
  });

  it("gives nothing, and says where, when the XML is truncated or broken", () => {
    const truncated = parseOfacSdn(SDN_XML.slice(0, SDN_XML.indexOf("GARANTEX")), src);
    expect(truncated.records).toEqual([]);
    expect(truncated.skipped).toHaveLength(1);
    expect(truncated.skipped[0]).toMatchObject({ line: 0, reason: expect.stringMatching(/^malformed XML/) });
    const broken = parseOfacSdn(SDN_XML.replace("</idList>", "</idLst>"), src);
    expect(broken.records).toEqual([]);
    expect(broken.skipped[0]?.reason).toMatch(/malformed XML: .*\d:\d+/);
  });

  it("refuses a well-formed document that is not the SDN list", () => {
    const r = parseOfacSdn("<html><body>maintenance</body></html>", src);
    expect(r.skipped).toEqual([{ line: 0, reason: "not an OFAC SDN list: the root element is not <sdnList>" }]);
    expect(parseOfacSdn("", src).skipped[0]?.line).toBe(0);
  });

  it("skips an address with whitespace inside, naming its line", () => {
    const r = parseOfacSdn(SDN_XML.replace("TX9hjx1KyLZSm3Q2VRMqzKZi9QH8nAmGwy", "TX9hjx1 KyLZSm3Q2"), src);
    expect(r.records).toHaveLength(2);
    expect(r.skipped).toEqual([{ line: 16, reason: "GARANTEX EUROPE OU (USDT): contains whitespace" }]);
  });
});
