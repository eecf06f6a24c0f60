/// `courier import curl|postman: conversion to .http`.
enum ImportCommand {
    static func run(_ arguments: [String]) -> Int32 {
        Console.error("courier: this subcommand is not built yet")
        return 2
    }
}
