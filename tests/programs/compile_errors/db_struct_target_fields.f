// A struct receiving rows must have queryable fields only (§15.5).
DatabaseURL = ':memory:'
struct Bad {
    id:int
    tags:arr[text]
}
arr[Bad] rows = sqlite('SELECT 1 AS id')
