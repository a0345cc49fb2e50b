// §9.5 postfix ++ and -- on an int variable, used as statements
int i = 5
i++
log(i)
i--
i--
log(i)
int j = 0
for int k = 0, k < 3, k++ {
    j++
}
log(j)
