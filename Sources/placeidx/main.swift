import Foundation
import PlaceCore
import PlaceIndex
import PlaceIndexBuilder
import PlaceIndexFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  placeidx: offline place autocomplete from OpenStreetMap extracts.

  USAGE
    placeidx build EXTRACT -o FILE [--data DIR] [--quiet] [--report]
    placeidx build EXTRACT -o DIR --split-by-country   (one shard per country: DIR/CC.placeidx)
    placeidx build --pipeline NAME [--root DIR] [--data DIR] [--quiet] [--report]
                 EXTRACT: .osm, .osm.gz, .osm.bz2 or .osm.pbf (by its first bytes), a file,
                 a FIFO, or - for standard input (osmium cat x.osm.pbf -f osm | placeidx build -)
    placeidx query --index FILE|DIR [--index …] QUERY [request options] [--json | --explain]
                 (several files or a folder of .placeidx shards answer as one index)
    placeidx query --index FILE [--index FILE…] --jsonl
    placeidx details --index FILE ID [--fields a,b,c] [--language xx] [--json]
                 fields: id, displayName, formattedAddress, addressComponents, location,
                 viewport, types, plusCode, attributions, or * (all, the default)
    placeidx inspect FILE
    placeidx verify FILE   (an index, or a packed .placeidx.tar from dist)
    placeidx dist --index FILE [-o DIR]   (index, manifest and ATTRIBUTION.txt in one tar:
                 DIR/NAME-fMAJOR.MINOR-dYYYYMMDDTHHMMSSZ.placeidx.tar; DIR is build/dist)
    placeidx serve --index FILE [--index FILE…] [--host 127.0.0.1] [--port 8080] [--threads N]
                 [--allow-remote] [--api-key-file FILE] [--max-connections 1000]
                 [--max-per-client 500] [--timeout 10]
                 POST /v1/places:autocomplete (request JSON as in --jsonl), GET /v1/places/ID
                 (field mask in an X-Goog-FieldMask header or ?fields=a,b; ?languageCode=xx),
                 GET /healthz, GET / (the autocomplete widget), GET /widget.js. A host other
                 than loopback needs --allow-remote (there is no authentication unless
                 --api-key-file names a key, sent as X-Goog-Api-Key or ?key=). --timeout: the
                 seconds a connection has for one whole request. SIGINT/SIGTERM stop it
                 gracefully (requests in progress are answered).
    placeidx pluscode encode|decode|shorten|recover …

  REQUEST OPTIONS (query)
  \(CommandHelp.requestOptions(indent: 2, width: 28))
    --explain                   each result's score in parts (docs/RANKING.md) and the
                                duplicates folded into it

  JSON LINES (query --jsonl)
    One request per line on stdin, one response per line on stdout, flushed, in order.
    Request fields (Places API New names): input, inputOffset, origin {latitude, longitude},
    locationBias / locationRestriction ({circle {center, radius}} or {rectangle {low, high}}),
    includedPrimaryTypes, includedRegionCodes, languageCode, regionCode, sessionToken,
    maxResultCount. includeQueryPredictions and includePureServiceAreaBusinesses are accepted
    and ignored. A bad request gets {"error":{"code":400,…}} on its line; the stream goes on.

  DATA TABLES (build)
    The place types, type rules, type synonyms, countries and abbreviations tables (Data/*.tsv in
    the repository) are compiled into placeidx. --data DIR, else the PLACEINDEX_DATA variable,
    names a folder of edited tables to use instead.

  MORE
    placeidx COMMAND --help     one command's usage and options
    placeidx --version          this tool's version and the index format versions it reads

  EXIT STATUS
    0 success; 1 failure (bad input file, bad request); 2 bad command line (unknown command or
    option, missing or malformed argument).
  """

/// The tool's version (`placeidx --version`).
let toolVersion = "0.1.0"

/// `placeidx --version`: the tool's version and the index format versions it reads and writes.
let versionText: String = {
  let (major, minor) = (IndexLayout.majorVersion, IndexLayout.minorVersion)
  return """
    placeidx \(toolVersion)
    index format \(major).\(minor) (writes \(major).\(minor); reads every \(major).x index, refuses other majors)
    packed artifacts NAME-f\(major).\(minor)-dYYYYMMDDTHHMMSSZ.placeidx.tar (dist, verify)
    """
}()

/// Prints to stderr.
func printError(_ text: String) {
  FileHandle.standardError.write((text + "\n").data(using: .utf8)!)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  guard let command = arguments.first else { throw UsageError("no command given\n\n" + usage) }
  let rest = Array(arguments.dropFirst())
  // `placeidx COMMAND --help` (pluscode answers its own subcommands' --help).
  if command != "pluscode", let help = CommandHelp.text[command], CommandHelp.asked(rest) {
    print(help)
    exit(0)
  }
  switch command {
  case "build": try BuildCommand.run(rest)
  case "query": try QueryCommand.run(rest)
  case "details": try DetailsCommand.run(rest)
  case "inspect": try InspectCommand.run(rest, verify: false)
  case "verify": try PackedArtifactVerifyCommand.run(rest)
  case "dist": try DistCommand.run(rest)
  case "serve": try ServeCommand.run(rest)
  case "pluscode":
    do {
      print(try PlusCodeCommand.run(rest, note: { printError("placeidx pluscode: \($0)") }))
    } catch let e as PlusCodeCommandError {
      printError("placeidx pluscode: \(e)")
      exit(e.isUsageError ? 2 : 1)
    }
  case "help", "--help", "-h":
    guard let topic = rest.first else {
      print(usage)
      break
    }
    guard rest.count == 1, let help = CommandHelp.text[topic] else {
      throw UsageError("help takes one command name: \(CommandHelp.names)")
    }
    print(help)
  case "--version", "version":
    guard rest.isEmpty else { throw UsageError("--version takes no arguments") }
    print(versionText)
  default: throw UsageError("unknown command '\(command)'\n\n" + usage)
  }
} catch let e as UsageError {
  printError("placeidx: \(e)")
  exit(2)
} catch let e as ServeError {
  printError("placeidx serve: \(e)")
  exit(1)
} catch let e as PlacesError {
  printError("placeidx: \(e.message)")
  exit(1)
} catch {
  printError("placeidx: \(error)")
  exit(1)
}
