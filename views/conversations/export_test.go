package conversations

// TopicsCell exposes topicsCell to the tests.
var TopicsCell = topicsCell
