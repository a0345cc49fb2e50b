// §9.6 for a non-enum value typeof is its static type name, even when it holds null
struct User {
    id:int
}
User u = null
log(typeof u)
text t = null
log(typeof t)
