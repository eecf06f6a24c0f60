// The CourierCollections module. Its files hold one main type each.
