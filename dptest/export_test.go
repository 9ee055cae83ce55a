package dptest

// FromModuleRoot exposes fromModuleRoot to the external tests.
var FromModuleRoot = fromModuleRoot

// HintDefaultDomain exposes hintDefaultDomain to the external tests.
var HintDefaultDomain = hintDefaultDomain
