graph [
 node [ id 0 club "a" ]
 node [ id 1 ]
 edge [ source 0 target 1 ]
]
