import Testing
@testable import CourierCollections

/// `CollectionRunner.prerequisites`: which earlier requests each request of a file waits for under
/// `courier run --jobs N`.
struct ParallelPrerequisitesTests {
    @Test func aRequestWaitsForTheResponseItReadsAndNothingElse() {
        // Given a login, an independent request, and one that reads the login's token
        let file = HTTPFile(path: "a.http", text: """
            # @name login
            POST https://x/login

            ###
            # @name other
            GET https://x/other

            ###
            # @name me
            GET https://x/me
            Authorization: Bearer {{login.response.body.$.token}}
            """)
        // Then only `me` waits, and only for the login
        #expect(CollectionRunner.prerequisites(of: file.requests) == [[], [], [0]])
    }

    @Test func requestsAboutTheSameResponseKeepTheirOrderAroundOneThatChangesIt() {
        // Given a user created, read twice, changed, read again and deleted, beside an unrelated request
        let file = HTTPFile(path: "a.http", text: """
            ### createUser
            POST https://x/users

            ### getUser
            GET https://x/users/{{createUser.response.body.$.id}}

            ### listAll
            GET https://x/users

            ### getAgain
            GET https://x/users/{{createUser.response.body.$.id}}?full=1

            ### patchUser
            PATCH https://x/users/{{createUser.response.body.$.id}}

            ### getPatched
            GET https://x/users/{{createUser.response.body.$.id}}

            ### deleteUser
            DELETE https://x/users/{{createUser.response.body.$.id}}
            """)
        // Then the reads run at once, the change waits for both, the read after it waits for it, the delete for
        // that read and the change; the unrelated request waits for nothing
        #expect(CollectionRunner.prerequisites(of: file.requests) == [[], [0], [], [0], [0, 1, 3], [0, 4], [0, 4, 5]])
    }

    @Test func httpyacsNamesOfAResponseMakeTheirReadersWaitForIt() {
        // Given a login and requests reading it by httpyac's names: a field of its body, and its whole response
        let file = HTTPFile(path: "a.http", text: """
            ### login
            POST https://x/login

            ### other
            GET https://x/other

            ### token
            GET https://x/t/{{login.token}}

            ### status
            GET https://x/s/{{loginResponse.status}}
            """)
        // Then both wait for the login, as they do for `{{login.response…}}`
        #expect(CollectionRunner.prerequisites(of: file.requests) == [[], [], [0], [0]])
    }

    @Test func aFileVariableThatReadsAResponseMakesItsUsersWaitAndNameItsRequest() throws {
        // Given `@uid` at the top of the file reading login's response through `@token`, and a request using it
        let file = HTTPFile(path: "a.http", text: """
            @token = {{login.response.body.$.token}}
            @uid = {{token}}-{{uid}}

            ### login
            # @name login
            POST https://x/login

            ### other
            GET https://x/other

            ### me
            # @name me
            GET https://x/users/{{uid}}
            """)
        // Then `me` waits for the login (names that refer to each other end), under --jobs and under --name
        let definitions = CollectionRunner.definitions(file.fileVariables)
        #expect(CollectionRunner.prerequisites(of: file.requests, definitions: definitions) == [[], [], [0]])
        let picked = try CollectionRunner.selection(of: file, names: ["me"], all: false)
        #expect(picked.compactMap(\.name) == ["login", "me"])
    }

    @Test func aScriptThatSetsAVariableAndARunBlockOrderWhatFollows() {
        // Given a request whose script sets {{token}}, one that uses it, and a @sleep request after both
        let file = HTTPFile(path: "a.http", text: """
            # @name login
            POST https://x/login

            > {% client.global.set("token", response.body.token); %}

            ###
            GET https://x/free

            ###
            GET https://x/me
            Authorization: Bearer {{token}}

            ###
            # @sleep 10
            GET https://x/later

            ###
            GET https://x/after
            """)
        // Then the user of the token waits for its setter; the @sleep request for everything before it, and
        // the request after it for the @sleep request
        #expect(CollectionRunner.prerequisites(of: file.requests) == [[], [], [0], [0, 1, 2], [3]])
    }
    @Test func aNameGivenTwiceMakesItsReaderWaitForBothAndScriptedRequestsWaitForTheScriptedBefore() {
        // Given two requests named login, one that reads login's response, and two requests with scripts
        let file = HTTPFile(path: "a.http", text: """
            # @name login
            POST https://x/login

            ###
            # @name login
            POST https://x/login2

            ###
            GET https://x/free

            ###
            GET https://x/me
            Authorization: Bearer {{login.response.body.$.token}}

            ###
            GET https://x/a

            > {% client.test("a", function() {}); %}

            ###
            GET https://x/b

            > {% client.test("b", function() {}); %}
            """)
        // Then the reader waits for both logins, and the second scripted request for the first
        #expect(CollectionRunner.prerequisites(of: file.requests) == [[], [], [], [0, 1], [], [4]])
    }

    @Test func eachRequestWaitsOnlyForTheLastOfAChainNotForEveryoneBeforeIt() {
        // Given three scripted requests (the first two set {{token}}), a request that uses {{token}}, one that
        // uses nothing, two @sleep requests with one between them
        let file = HTTPFile(path: "a.http", text: """
            GET https://x/a

            > {% client.global.set("token", "a"); %}

            ###
            GET https://x/b

            > {% client.global.set("token", "b"); %}

            ###
            GET https://x/c

            > {% client.test("c", function() {}); %}

            ###
            GET https://x/me
            Authorization: Bearer {{token}}

            ###
            GET https://x/free

            ###
            # @sleep 1
            GET https://x/pause

            ###
            GET https://x/between

            ###
            # @sleep 1
            GET https://x/pause-again
            """)
        // Then each scripted request waits for the one before it, the user of {{token}} for the last script
        // that sets it, the first @sleep for everything, and the second only for the first and what came since
        #expect(CollectionRunner.prerequisites(of: file.requests)
                == [[], [0], [1], [1], [], [0, 1, 2, 3, 4], [5], [5, 6]])
    }

    @Test func aLongScriptedFileKeepsOneIndexPerRequest() {
        // Given 3,000 requests, each with a test script
        let text = (0..<3000).map { "GET https://x/\($0)\n\n> {% client.test(\"t\", function() {}); %}" }
            .joined(separator: "\n\n###\n")
        let needs = CollectionRunner.prerequisites(of: HTTPFile(path: "a.http", text: text).requests)
        // Then each waits for the one before it only (every earlier one was 4.5 million indices)
        #expect(needs.count == 3000)
        #expect(needs.enumerated().allSatisfy { index, earlier in earlier == (index == 0 ? [] : [index - 1]) })
    }
}
