package dev.mcptasks.reference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The conformance fixtures' fixed JSON, written with single quotes for readability. */
final class FixtureJson {
  static final ObjectMapper MAPPER = new ObjectMapper();
  /** A 1x1 red PNG. */
  static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0g"
      + "AAAABJRU5ErkJggg==";
  /** One millisecond of 8 kHz 8-bit mono silence, as WAV. */
  static final String WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

  private FixtureJson() {}

  static ObjectNode object(String singleQuoted) {
    try {
      return (ObjectNode) MAPPER.readTree(singleQuoted.replace('\'', '"')
          .replace("$PNG", PNG).replace("$WAV", WAV));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(singleQuoted, e);
    }
  }
}
