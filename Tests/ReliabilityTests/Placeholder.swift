// Placeholder until the reliability suites land; SwiftPM needs one source file per target.
