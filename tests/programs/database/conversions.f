// Result values convert to the field's type (§15.3): see
// stdlib/src/db.rs for the rules this checks.
DatabaseURL = ':memory:'

struct AsInt {
    v:int
}
struct AsFloat {
    v:float
}
struct AsBool {
    v:bool
}
struct AsText {
    v:text
}
struct AsBlob {
    v:blob
}

arr[AsInt] ints = sqlite("SELECT 7 AS v UNION ALL SELECT 2.9 UNION ALL SELECT '12' UNION ALL SELECT 'abc' UNION ALL SELECT -3.7 UNION ALL SELECT NULL")
log(ints)
arr[AsFloat] floats = sqlite("SELECT 2 AS v UNION ALL SELECT 0.5 UNION ALL SELECT '1.25' UNION ALL SELECT 'x' UNION ALL SELECT NULL")
log(floats)
arr[AsBool] bools = sqlite("SELECT 0 AS v UNION ALL SELECT 1 UNION ALL SELECT 5 UNION ALL SELECT 'true' UNION ALL SELECT 'no' UNION ALL SELECT NULL")
log(bools)
arr[AsText] texts = sqlite("SELECT 42 AS v UNION ALL SELECT 2.0 UNION ALL SELECT 0.1 UNION ALL SELECT 'plain' UNION ALL SELECT x'41420043' UNION ALL SELECT NULL")
log(texts)
arr[AsBlob] blobs = sqlite("SELECT x'00FF10' AS v UNION ALL SELECT 'text' UNION ALL SELECT NULL")
log(blobs[0].v.length)
log(blobs[0].v.byteAt(1))
log(blobs[1].v.toText())
log(blobs[2].v == null)
log(blobs)
