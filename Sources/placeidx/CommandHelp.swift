/// `placeidx COMMAND --help` and `placeidx help COMMAND`: one text per command.
enum CommandHelp {
  /// Whether `args` (a command's arguments) ask for help: `--help` or `-h` before any `--`.
  static func asked(_ args: [String]) -> Bool {
    for a in args {
      if a == "--" { return false }
      if a == "--help" || a == "-h" { return true }
    }
    return false
  }

  /// The command names that have a help text, for error messages.
  static var names: String { text.keys.sorted().joined(separator: ", ") }

  /// Each command's help.
  /// The request options of `query`, one home for `placeidx help` and `placeidx query --help`:
  /// each line indented by `indent`, descriptions from column `width`.
  static func requestOptions(indent: Int, width: Int) -> String {
    let options: [(String, [String])] = [
      ("--origin LAT,LNG", ["distances are measured from here"]),
      ("--bias-circle LAT,LNG,R", ["prefer places within R meters (0..50000)"]),
      ("--bias-rect LAT,LNG,LAT,LNG", ["prefer places in the rectangle (low corner, high corner)"]),
      ("--restrict-circle LAT,LNG,R", ["only places within R meters (R > 0)"]),
      ("--restrict-rect LAT,LNG,LAT,LNG", ["only places in the rectangle"]),
      (
        "--types a,b",
        [
          "up to 5 primary types, or one of address, establishment,",
          "geocode, (regions), (cities)",
        ]
      ),
      ("--countries xx,yy", ["up to 15 region codes"]),
      ("--region XX", ["format for this region (its country name is left out)"]),
      ("--language xx", ["preferred name language"]),
      ("--offset N", ["cursor offset in the query (Unicode characters)"]),
      ("--max N", ["most suggestions (default 5)"]),
    ]
    let pad = String(repeating: " ", count: indent)
    return options.map { name, lines in
      let head = pad + name
      let first =
        head.count < indent + width
        ? head.padding(toLength: indent + width, withPad: " ", startingAt: 0)
          + lines[0] : head + "  " + lines[0]
      return
        ([first] + lines.dropFirst().map { String(repeating: " ", count: indent + width) + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }

  static let text: [String: String] = [
    "build": """
    usage: placeidx build EXTRACT -o FILE [--data DIR] [--quiet] [--report]
           placeidx build EXTRACT -o DIR --split-by-country
           placeidx build --pipeline NAME [--root DIR] [-o FILE] [--data DIR] [--quiet] [--report]

    Compiles an OpenStreetMap extract (.osm, .osm.gz or .osm.bz2, detected from its first bytes)
    into an index FILE and its manifest FILE.json. The file appears under its final name only
    when it is complete.

      -o, --output PATH     the index to write (a folder with --split-by-country)
      --split-by-country    one shard per country: DIR/CC.placeidx
      --pipeline NAME       read Pipelines/NAME.pipeline (extract, output, options) under --root
      --root DIR            the folder holding Pipelines/ (default: the current folder)
      --data DIR            read the data tables from DIR instead of the built-in copies
                            (the PLACEINDEX_DATA variable does the same)
      --quiet               no progress line and no summary
      --report              the full build report (counts per stage, timings)
    """,
    "query": """
    usage: placeidx query --index FILE|DIR [--index …] QUERY [request options] [--json | --explain]
           placeidx query --index FILE [--index FILE…] --jsonl

    Autocomplete: prints the suggestions for QUERY (several --index files, or a folder of
    them, are shards answering as one index), or with --jsonl answers one JSON request per
    stdin line.

    \(requestOptions(indent: 2, width: 30))
      --session TOKEN               a session token
      --json                        the Places API (New) response JSON
      --explain                     each result's score in parts (docs/RANKING.md) and the
                                    duplicates folded into it
      --jsonl                       JSON lines: see `placeidx help`, "JSON LINES"
    """,
    "details": """
    usage: placeidx details --index FILE [--index FILE…] ID [--fields a,b,c] [--language xx] [--json]

    One place's details: ID is a place ID as query prints it ([N…], [W…] or [R…]).

      --fields a,b,c    id, displayName, formattedAddress, addressComponents, location,
                        viewport, types, plusCode, attributions, or * (all, the default)
      --language xx     preferred name language
      --json            the Place Details (New) JSON shape
    """,
    "inspect": """
    usage: placeidx inspect FILE

    Prints an index's format version, size, data source and timestamp, place count,
    attribution, licence and sections (opening reads the header only; see verify).
    """,
    "verify": """
    usage: placeidx verify FILE

    Checks every section checksum and internal reference of an index, or, for a packed
    .placeidx.tar from dist, its tar headers, members, manifest, attribution and then its index.
    """,
    "dist": """
    usage: placeidx dist --index FILE [-o DIR]

    Packs an index, its manifest (FILE.json beside it) and ATTRIBUTION.txt into one tar,
    DIR/NAME-fMAJOR.MINOR-dYYYYMMDDTHHMMSSZ.placeidx.tar (DIR defaults to build/dist),
    byte-identical for the same index; an index that fails verify is refused.
    """,
    "serve": """
    usage: placeidx serve --index FILE [--index FILE…] [--host 127.0.0.1] [--port 8080] [--threads 2]

    An HTTP/1.1 server speaking the Places API (New) JSON:
      POST /v1/places:autocomplete   the request JSON as in query --jsonl
      GET  /v1/places/ID             details; field mask in an X-Goog-FieldMask header or
                                     ?fields=a,b (every field without either); ?languageCode=xx

      --host ADDRESS    the address to listen on (default 127.0.0.1)
      --port N          0…65535 (default 8080; 0 picks a free port, printed at start)
      --threads N       worker threads (default 2)
    """,
    "pluscode": PlusCodeCommand.usage,
    "help": """
    usage: placeidx help [COMMAND]

    Prints the overview of every command, or one COMMAND's help (as `placeidx COMMAND --help`).
    """,
  ]
}
