package dptest

// FromModuleRoot exposes fromModuleRoot to the external tests.
var FromModuleRoot = fromModuleRoot
