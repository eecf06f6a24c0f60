import Foundation

/// One user of the demo API.
struct DemoUser: Equatable {
    var id: Int
    var name: String
    var username: String
    var email: String
    var age: Int
    var city: String
    var company: String
    var active: Bool
    var createdAt: String

    /// The JSON object the API sends.
    var json: [String: Any] {
        ["id": id, "name": name, "username": username, "email": email, "age": age, "city": city,
         "company": company, "active": active, "created_at": createdAt]
    }

    /// Whether the user matches a search term (name, username, email, city or company).
    func matches(_ term: String) -> Bool {
        let needle = term.lowercased()
        return [name, username, email, city, company].contains { $0.lowercased().contains(needle) }
    }
}

/// The users the demo API serves, editable through POST, PUT, PATCH and DELETE.
struct DemoUserStore {
    private(set) var users: [DemoUser]
    private var nextID: Int

    /// Why a user body was refused.
    enum Invalid: Error {
        case notAnObject
        case missing(field: String)
        case wrongType(field: String, expected: String)
    }

    /// Fields a client may set, with their JSON types.
    static let editableFields: [String: String] = [
        "name": "string", "username": "string", "email": "string", "age": "integer", "city": "string",
        "company": "string", "active": "boolean",
    ]
    /// Fields PUT and POST must carry.
    static let requiredFields = ["name", "email"]

    /// The initial population: every server starts with the same users.
    static let seeded: DemoUserStore = {
        let people: [(String, Int, String, String)] = [
            ("Ada Lovelace", 36, "London", "Analytical Engines Ltd"),
            ("Grace Hopper", 85, "Arlington", "Compiler Works"),
            ("Alan Turing", 41, "Manchester", "Bletchley Labs"),
            ("Katherine Johnson", 101, "Hampton", "Orbital Mechanics Inc"),
            ("Edsger Dijkstra", 72, "Austin", "Shortest Path Co"),
            ("Barbara Liskov", 84, "Boston", "Substitution Systems"),
            ("Donald Knuth", 86, "Stanford", "Literate Programs"),
            ("Margaret Hamilton", 88, "Cambridge", "Apollo Software"),
            ("Ken Thompson", 81, "Berkeley", "Plan Nine Partners"),
            ("Radia Perlman", 73, "Seattle", "Spanning Trees LLC"),
            ("Linus Torvalds", 54, "Portland", "Kernel Collective"),
            ("Frances Allen", 88, "Peekskill", "Optimizing Compilers"),
            ("John McCarthy", 84, "Palo Alto", "Lambda Labs"),
            ("Sophie Wilson", 67, "Cambridge", "Acorn Silicon"),
            ("Tim Berners-Lee", 69, "Geneva", "Hypertext Foundation"),
            ("Hedy Lamarr", 85, "Vienna", "Frequency Hopping GmbH"),
            ("Dennis Ritchie", 70, "Murray Hill", "Bell Systems"),
            ("Shafi Goldwasser", 66, "Tel Aviv", "Zero Knowledge Ltd"),
            ("Guido van Rossum", 68, "Amsterdam", "Indentation BV"),
            ("Adele Goldberg", 79, "Palo Alto", "Smalltalk Studio"),
            ("Niklaus Wirth", 89, "Zürich", "Pascal & Partners"),
            ("Mary Jackson", 83, "Hampton", "Wind Tunnel Analytics"),
            ("Leslie Lamport", 83, "Mountain View", "Paxos Consensus"),
            ("Anita Borg", 54, "Palo Alto", "Systers Network"),
            ("Vint Cerf", 81, "McLean", "Packet Switching Corp"),
        ]
        let users = people.enumerated().map { index, person in
            let (name, age, city, company) = person
            let username = name.lowercased().folding(options: .diacriticInsensitive, locale: nil)
                .replacingOccurrences(of: " ", with: ".").replacingOccurrences(of: "-", with: "")
            let day = 1 + (index * 7) % 28, month = 1 + index % 12
            return DemoUser(id: index + 1, name: name, username: username, email: "\(username)@example.com",
                            age: age, city: city, company: company, active: index % 5 != 4,
                            createdAt: "2024-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T09:30:00Z")
        }
        return DemoUserStore(users: users, nextID: users.count + 1)
    }()

    /// The user with this id.
    func user(_ id: Int) -> DemoUser? { users.first { $0.id == id } }

    /// Creates a user from a JSON body; name and email are required.
    mutating func create(_ fields: [String: Any]) throws(Invalid) -> DemoUser {
        try Self.validate(fields, requireAll: true)
        let name = fields["name"] as? String ?? ""
        var user = DemoUser(id: nextID, name: name, username: name.lowercased().replacingOccurrences(of: " ", with: "."),
                            email: "", age: 0, city: "", company: "", active: true,
                            createdAt: ISO8601DateFormatter().string(from: Date()))
        Self.apply(fields, to: &user)
        nextID += 1
        users.append(user)
        return user
    }

    /// Replaces (PUT, `merge` false) or updates (PATCH, `merge` true) a user; nil when unknown.
    mutating func update(_ id: Int, with fields: [String: Any], merge: Bool) throws(Invalid) -> DemoUser? {
        guard let index = users.firstIndex(where: { $0.id == id }) else { return nil }
        try Self.validate(fields, requireAll: !merge)
        var user = users[index]
        if !merge {
            user = DemoUser(id: id, name: "", username: user.username, email: "", age: 0, city: "", company: "",
                            active: true, createdAt: user.createdAt)
        }
        Self.apply(fields, to: &user)
        users[index] = user
        return user
    }

    /// Removes a user; false when unknown.
    mutating func delete(_ id: Int) -> Bool {
        guard let index = users.firstIndex(where: { $0.id == id }) else { return false }
        users.remove(at: index)
        return true
    }

    private static func validate(_ fields: [String: Any], requireAll: Bool) throws(Invalid) {
        if requireAll, let missing = requiredFields.first(where: { fields[$0] == nil }) {
            throw .missing(field: missing)
        }
        for (field, type) in editableFields {
            guard let value = fields[field] else { continue }
            let fits: Bool = switch type {
            case "integer": (value as? NSNumber).map { !isBoolean($0) && $0.doubleValue == $0.doubleValue.rounded() } ?? false
            case "boolean": (value as? NSNumber).map(isBoolean) ?? false
            default: value is String
            }
            if !fits { throw .wrongType(field: field, expected: type) }
        }
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        // JSONSerialization gives booleans as NSNumber; their type encoding is "c" ("B" on some platforms).
        let type = String(cString: number.objCType)
        return type == "c" || type == "B"
    }

    private static func apply(_ fields: [String: Any], to user: inout DemoUser) {
        if let value = fields["name"] as? String { user.name = value }
        if let value = fields["username"] as? String { user.username = value }
        if let value = fields["email"] as? String { user.email = value }
        if let value = fields["age"] as? NSNumber { user.age = value.intValue }
        if let value = fields["city"] as? String { user.city = value }
        if let value = fields["company"] as? String { user.company = value }
        if let value = fields["active"] as? NSNumber { user.active = value.boolValue }
    }
}
