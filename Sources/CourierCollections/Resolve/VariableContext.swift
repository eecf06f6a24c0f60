import CourierHTTP
import CourierSecurity
import Foundation

/// Everything variables are resolved from, besides the `.http` file itself.
public struct VariableContext: Sendable {
    /// The fields, behind one reference (`CopyOnWrite`): the context goes into every resolver and interpolator
    /// of a run, and was copied field by field several times per request.
    private struct Fields: Sendable {
        var overrides: [String: String]
        var environment: Environment
        var processEnvironment: [String: String]
        var responses: ResponseStore
        var dynamic: DynamicValues
        var globals: [String: String]
        var certificatePassphrase: String?
        var clientCertificate: ClientCertificate?
        var fileAccess = CollectionFileAccess()
        var iteration = IterationRow()
        var readsSecretStores = true
        var lazyGlobals: [String: String] = [:]
        var scriptExpressions = ScriptExpressions.notEvaluated
        var ranFileScripts: Set<String> = []
    }

    private var fields: CopyOnWrite<Fields>

    /// `--var name=value`: beats every other source, so a run can point a collection elsewhere.
    public var overrides: [String: String] {
        get { fields.value.overrides }
        _modify { yield &fields.value.overrides }
    }
    public var environment: Environment {
        get { fields.value.environment }
        _modify { yield &fields.value.environment }
    }
    /// Read only through `{{$processEnv NAME}}`; values are treated as secrets.
    public var processEnvironment: [String: String] {
        get { fields.value.processEnvironment }
        _modify { yield &fields.value.processEnvironment }
    }
    /// Named responses from earlier requests of the same run.
    public var responses: ResponseStore {
        get { fields.value.responses }
        _modify { yield &fields.value.responses }
    }
    public var dynamic: DynamicValues {
        get { fields.value.dynamic }
        _modify { yield &fields.value.dynamic }
    }
    /// Values request scripts set (`client.global.set`, `pm.environment.set`), for the rest of the run or
    /// explorer session; they rank below request variables and above file variables.
    public var globals: [String: String] {
        get { fields.value.globals }
        _modify { yield &fields.value.globals }
    }
    /// Unlocks an environment's client certificate (`--pass`, or asked for in the explorer). A secret.
    public var certificatePassphrase: String? {
        get { fields.value.certificatePassphrase }
        _modify { yield &fields.value.certificatePassphrase }
    }
    /// Presented instead of any certificate the environment names (`courier run --cert`).
    public var clientCertificate: ClientCertificate? {
        get { fields.value.clientCertificate }
        _modify { yield &fields.value.clientCertificate }
    }
    /// What the collection may read (`< file`) and write (`>> file`): its own folder unless the user
    /// allowed more.
    public var fileAccess: CollectionFileAccess {
        get { fields.value.fileAccess }
        _modify { yield &fields.value.fileAccess }
    }
    /// The row of `courier run --data` this run is on (`pm.iterationData`); its values are also `overrides`.
    public var iteration: IterationRow {
        get { fields.value.iteration }
        _modify { yield &fields.value.iteration }
    }
    /// Whether environment values kept in a secret store are read (a send); when not (`courier check`,
    /// `courier export`), each stands as `<store reference>` and is still treated as a secret.
    public var readsSecretStores: Bool {
        get { fields.value.readsSecretStores }
        _modify { yield &fields.value.readsSecretStores }
    }
    /// httpyac's `@name := value` lines after a request, set once its response was in: evaluated where they
    /// are used, ranked with `globals` (a later `@name = value` or export replaces one).
    public var lazyGlobals: [String: String] {
        get { fields.value.lazyGlobals }
        _modify { yield &fields.value.lazyGlobals }
    }
    /// Whether httpyac's `{{ expression }}` JavaScript is evaluated: only where scripts run (a send).
    public var scriptExpressions: ScriptExpressions {
        get { fields.value.scriptExpressions }
        _modify { yield &fields.value.scriptExpressions }
    }
    /// Files whose httpyac once-scripts (`{{ }}` in a block without a request) ran in this run.
    public var ranFileScripts: Set<String> {
        get { fields.value.ranFileScripts }
        _modify { yield &fields.value.ranFileScripts }
    }

    public init(overrides: [String: String] = [:], environment: Environment = .none,
                processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
                responses: ResponseStore = ResponseStore(), dynamic: DynamicValues = .live,
                globals: [String: String] = [:]) {
        fields = CopyOnWrite(Fields(overrides: overrides, environment: environment,
                                    processEnvironment: processEnvironment, responses: responses, dynamic: dynamic,
                                    globals: globals))
    }

    /// The values of globals that are secrets, masked in every later output like private environment values:
    /// a global named like a secret by the one secret policy (`accessToken`, `client_secret`, `session`), or
    /// one named like a value of the private environment (`http-client.private.env.json` marks it secret).
    public var secretGlobalValues: Set<String> {
        Set(globals.compactMap { name, value in
            guard !value.isEmpty else { return nil }
            let secret = SecretPolicy.isSecretParameter(name) || environment.values[name]?.isSecret == true
            return secret ? value : nil
        })
    }
}

/// What happens to httpyac's `{{ expression }}` JavaScript (`Interpolator.scriptExpression`).
public enum ScriptExpressions: Sendable {
    /// Not evaluated: the text is looked up as a name (an unknown variable).
    case notEvaluated
    /// Evaluated on JavaScriptCore, as scripts are when a request is sent.
    case evaluated
    /// Taken as given without running anything (`courier check`).
    case assumed
}

/// The clock, random source and time zone behind every `{{$…}}` dynamic variable, replaceable in tests.
public struct DynamicValues: Sendable {
    public var uuid: @Sendable () -> String
    public var now: @Sendable () -> Date
    /// A number in the half-open range, like VS Code's `$randomInt min max`.
    public var randomInt: @Sendable (Range<Int>) -> Int
    /// The zone of `{{$localDatetime}}`: by default the machine's, looked up when first used (not by every start
    /// of the explorer and every run, for a variable few requests use).
    public var timeZone: TimeZone

    public init(uuid: @escaping @Sendable () -> String, now: @escaping @Sendable () -> Date,
                randomInt: @escaping @Sendable (Range<Int>) -> Int, timeZone: TimeZone = .autoupdatingCurrent) {
        self.uuid = uuid
        self.now = now
        self.randomInt = randomInt
        self.timeZone = timeZone
    }

    /// Real UUIDs, the clock and the system random generator.
    public static let live = DynamicValues(uuid: { UUID().uuidString.lowercased() }, now: { Date() },
                                           randomInt: { Int.random(in: $0) })
}
